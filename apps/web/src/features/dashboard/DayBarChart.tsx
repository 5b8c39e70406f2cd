import { Tooltip } from 'antd';
import { useRef } from 'react';
import { useElementWidth } from '../../common/use-element-width';
import { barHeights, labelledDays, shortDay, valuesFit } from './day-bars';
import './dashboard.css';

interface DayBarChartProps {
  title: string;
  unit: string;
  days: { date: string; value: number }[];
  /** How a value reads (revenue in fen as ¥49.00); the unit follows it. Plain numbers by default. */
  format?: (value: number) => string;
}

/**
 * A small bar chart of one figure per day: plain elements, no chart library for a handful of bars. The figures
 * are readable without hovering: the total, the average and the best day above the bars, each day's value over
 * its bar when they fit, and the date under as many bars as have room for one.
 */
export function DayBarChart({ title, unit, days, format = String }: DayBarChartProps) {
  const bars = useRef<HTMLOListElement>(null);
  const width = useElementWidth(bars);
  const values = days.map((day) => day.value);
  const heights = barHeights(values);
  const labelled = labelledDays(days.length, width);
  const showValues = valuesFit(values.map(format), width);
  const total = values.reduce((sum, value) => sum + value, 0);
  const best = days.reduce<(typeof days)[number] | null>(
    (top, day) => (top && top.value >= day.value ? top : day),
    null,
  );
  const average = days.length ? Math.round((total / days.length) * 10) / 10 : 0;

  return (
    <figure className="hf-day-chart" aria-label={title}>
      <figcaption className="hf-day-chart-head">
        <span className="hf-day-chart-title">{title}</span>
        <span className="hf-day-chart-summary">
          合计 {format(total)} {unit} · 日均 {format(average)} {unit}
          {best && best.value > 0 && ` · 最高 ${format(best.value)} ${unit}（${shortDay(best.date)}）`}
        </span>
      </figcaption>
      <ol ref={bars} className="hf-day-chart-bars">
        {days.map((day, index) => (
          <Tooltip key={day.date} title={`${day.date}：${format(day.value)} ${unit}`}>
            <li className="hf-day-chart-column" aria-label={`${day.date}：${format(day.value)} ${unit}`}>
              {showValues && <span className="hf-day-chart-value">{format(day.value)}</span>}
              <div className="hf-day-chart-bar" style={{ height: `${Math.max(2, (heights[index] ?? 0) * 100)}%` }} />
              <span className="hf-day-chart-label">{labelled[index] ? shortDay(day.date) : ''}</span>
            </li>
          </Tooltip>
        ))}
      </ol>
    </figure>
  );
}
