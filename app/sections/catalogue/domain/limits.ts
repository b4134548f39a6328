/**
 * The most units of one product a line of a cart or an order may hold (decision 0025): a shop's goods
 * are bought by the piece, and the cap keeps one visitor from holding a whole stock for the 15
 * minutes of a payment.
 */
export const MAX_LINE_QUANTITY = 20;
