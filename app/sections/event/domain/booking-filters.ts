/** Rows per page of the bookings list (dashboard spec §9): 10, 50, 100 or all; 10 by default. */
export const BOOKING_PAGE_SIZES = [10, 50, 100] as const;
export type BookingPageSize = (typeof BOOKING_PAGE_SIZES)[number] | "all";
/** The attendance filter (dashboard spec §4). */
export const ATTENDANCE = ["attended", "not_attended", "partial_attended"] as const;
export type Attendance = (typeof ATTENDANCE)[number];
