/**
 * The home page's charts, drawn as plain SVG when the page renders (on the server, and again by React
 * on the client with the same output): they show without JavaScript and bring no chart library to the
 * browser (docs/decisions/0020). A point or a slice names its figure in a <title>, which browsers show
 * on hover. The pictures are hidden from screen readers; the tables beside them hold the numbers.
 */

/** A Mantine colour token ("brand.6") as the CSS variable the theme defines. */
export const colorOf = (token: string) => `var(--mantine-color-${token.replace(".", "-")})`;

type Point = [x: number, y: number];

/**
 * A smooth path through points that never overshoots them (monotone cubic, Fritsch–Carlson), as
 * d3's curveMonotoneX draws it; null values break the line.
 */
function monotonePath(points: (Point | null)[]): string {
  const runs: Point[][] = [];
  let run: Point[] = [];
  for (const point of points) {
    if (point) run.push(point);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs
    .map((line) => {
      if (line.length === 1) return `M${line[0][0]},${line[0][1]}h0.01`;
      const slopes = line
        .slice(1)
        .map((point, index) => (point[1] - line[index][1]) / (point[0] - line[index][0] || 1));
      const tangents = line.map((_, index) => {
        if (index === 0) return slopes[0];
        if (index === line.length - 1) return slopes[slopes.length - 1];
        const [before, after] = [slopes[index - 1], slopes[index]];
        return before * after <= 0 ? 0 : (2 * before * after) / (before + after);
      });
      let d = `M${line[0][0]},${line[0][1]}`;
      for (let index = 1; index < line.length; index++) {
        const [x0, y0] = line[index - 1];
        const [x1, y1] = line[index];
        const third = (x1 - x0) / 3;
        d += `C${x0 + third},${y0 + tangents[index - 1] * third} ${x1 - third},${y1 - tangents[index] * third} ${x1},${y1}`;
      }
      return d;
    })
    .join("");
}

const round = (value: number) => Math.round(value * 100) / 100;

/** A tile's small trend line with a light area under it; its box is mirrored in Arabic (statistics.css). */
export function Sparkline({ data, color, height = 40 }: { data: (number | null)[]; color: string; height?: number }) {
  const width = 200;
  const values = data.filter((value): value is number => value !== null);
  if (data.length < 2 || values.length === 0) return null;
  const [min, max] = [Math.min(...values), Math.max(...values)];
  const y = (value: number) =>
    round(max === min ? height / 2 : height - 2 - ((value - min) / (max - min)) * (height - 4));
  const x = (index: number) => round((index / (data.length - 1)) * width);
  const points = data.map((value, index): Point | null => (value === null ? null : [x(index), y(value)]));
  const line = monotonePath(points);
  const first = points.findIndex(Boolean);
  const last = points.length - 1 - [...points].reverse().findIndex(Boolean);
  const area =
    values.length > 1 && !data.slice(first, last + 1).includes(null)
      ? `${line}L${x(last)},${height}L${x(first)},${height}Z`
      : null;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      preserveAspectRatio="none"
      focusable="false"
      aria-hidden
    >
      {area ? <path d={area} fill={colorOf(color)} fillOpacity={0.25} stroke="none" /> : null}
      <path d={line} fill="none" stroke={colorOf(color)} strokeWidth={2} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** 0, a round step, … up to at least `max`: a value axis's ticks. */
function ticksUpTo(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough) ?? rough;
  return Array.from({ length: Math.ceil(max / step - 1e-9) + 1 }, (_, index) => round(index * step));
}

export type LineSeries = { name: string; color: string; values: (number | null)[]; texts: string[] };

/**
 * Lines over labelled steps (the months of a year), with a value axis. In Arabic time runs from the
 * right and the value axis stands on the right, as the page reads.
 */
export function LinePlot({
  labels,
  series,
  height,
  rtl,
  formatValue,
}: {
  labels: string[];
  series: LineSeries[];
  height: number;
  rtl: boolean;
  formatValue: (value: number) => string;
}) {
  const width = 560;
  const [axisWidth, top, bottom, edge] = [60, 10, 26, 14];
  const plotWidth = width - axisWidth - edge;
  const plotHeight = height - top - bottom;
  const values = series.flatMap((line) => line.values.filter((value): value is number => value !== null));
  const ticks = ticksUpTo(Math.max(0, ...values));
  const top_ = ticks[ticks.length - 1] || 1;
  const step = labels.length > 1 ? plotWidth / (labels.length - 1) : 0;
  const x = (index: number) => round(rtl ? width - axisWidth - index * step : axisWidth + index * step);
  const y = (value: number) => round(top + plotHeight - (value / top_) * plotHeight);
  const axisX = rtl ? width - axisWidth + 8 : axisWidth - 8;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      focusable="false"
      aria-hidden
      className="chart-svg"
    >
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={rtl ? edge : axisWidth}
            x2={rtl ? width - axisWidth : width - edge}
            y1={y(tick)}
            y2={y(tick)}
            stroke="var(--mantine-color-gray-3)"
            strokeDasharray="4 4"
          />
          <text x={axisX} y={y(tick)} dy="0.32em" textAnchor={rtl ? "start" : "end"} className="chart-axis">
            {formatValue(tick)}
          </text>
        </g>
      ))}
      {labels.map((label, index) => (
        <text key={label} x={x(index)} y={height - 8} textAnchor="middle" className="chart-axis">
          {label}
        </text>
      ))}
      {series.map((line) => (
        <g key={line.name}>
          <path
            d={monotonePath(line.values.map((value, index) => (value === null ? null : [x(index), y(value)])))}
            fill="none"
            stroke={colorOf(line.color)}
            strokeWidth={2}
          />
          {line.values.map((value, index) =>
            value === null ? null : (
              <circle
                key={labels[index]}
                cx={x(index)}
                cy={y(value)}
                r={4}
                fill={colorOf(line.color)}
                stroke="white"
                strokeWidth={1.5}
              >
                <title>{`${labels[index]}: ${line.texts[index]}`}</title>
              </circle>
            ),
          )}
        </g>
      ))}
    </svg>
  );
}

/** A ring of slices with a gap between them and a label in its middle. */
export function DonutPlot({
  slices,
  size,
  thickness,
  label,
}: {
  slices: { name: string; value: number; color: string; text: string }[];
  size: number;
  thickness: number;
  label: string;
}) {
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  const [center, outer] = [size / 2, size / 2 - 1];
  const inner = outer - thickness;
  const gap = slices.filter((slice) => slice.value > 0).length > 1 ? (2 * Math.PI) / 180 : 0;
  const pointAt = (radius: number, angle: number) =>
    `${round(center + radius * Math.sin(angle))},${round(center - radius * Math.cos(angle))}`;
  let start = 0;
  return (
    <svg viewBox={`0 0 ${size} ${size}`} width={size} height={size} focusable="false" aria-hidden>
      {slices.map((slice) => {
        const sweep = total > 0 ? (slice.value / total) * 2 * Math.PI : 0;
        const [from, to] = [start + gap / 2, start + sweep - gap / 2];
        start += sweep;
        if (sweep <= 0 || to <= from) return null;
        const title = <title>{`${slice.name}: ${slice.text}`}</title>;
        if (sweep >= 2 * Math.PI - 1e-6) {
          return (
            <circle
              key={slice.name}
              cx={center}
              cy={center}
              r={outer - thickness / 2}
              fill="none"
              stroke={colorOf(slice.color)}
              strokeWidth={thickness}
            >
              {title}
            </circle>
          );
        }
        const large = to - from > Math.PI ? 1 : 0;
        const d = `M${pointAt(outer, from)}A${outer},${outer} 0 ${large} 1 ${pointAt(outer, to)}L${pointAt(inner, to)}A${inner},${inner} 0 ${large} 0 ${pointAt(inner, from)}Z`;
        return (
          <path key={slice.name} d={d} fill={colorOf(slice.color)}>
            {title}
          </path>
        );
      })}
      <text x={center} y={center} dy="0.35em" textAnchor="middle" className="chart-label">
        {label}
      </text>
    </svg>
  );
}
