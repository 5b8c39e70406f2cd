import { Tooltip } from 'antd';
import { barHeights, shortDay } from './day-bars';
import './dashboard.css';

interface DayBarChartProps {
  title: string;
  unit: string;
  days: { date: string; value: number }[];
}

/** A small bar chart of one figure per day: plain elements, no chart library for a handful of bars. */
export function DayBarChart({ title, unit, days }: DayBarChartProps) {
  const heights = barHeights(days.map((day) => day.value));
  return (
    <figure className="hf-day-chart" aria-label={title}>
      <figcaption className="hf-day-chart-title">{title}</figcaption>
      <div className="hf-day-chart-bars">
        {days.map((day, index) => (
          <Tooltip key={day.date} title={`${day.date}：${day.value} ${unit}`}>
            <div className="hf-day-chart-column">
              <div className="hf-day-chart-bar" style={{ height: `${Math.max(2, (heights[index] ?? 0) * 100)}%` }} />
              <span className="hf-day-chart-label">{shortDay(day.date)}</span>
            </div>
          </Tooltip>
        ))}
      </div>
    </figure>
  );
}
