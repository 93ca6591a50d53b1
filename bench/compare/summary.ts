import { DriverTask, figuresOf } from './tasks';

export type Database = 'cold' | 'warm';

/** One driver's JSON line, with where and when it was measured. */
export interface Measurement {
  round: number;
  tree: string;
  database: Database;
  workload: string;
  [field: string]: unknown;
}

export interface ComparedFigure {
  figure: string;
  database: Database;
  /** Each round's value, in round order. */
  thisTree: number[];
  other: number[];
  /** This tree's median ÷ the other's. */
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function compareFigures(tasks: DriverTask[], measurements: Measurement[], thisLabel: string, otherLabel: string): ComparedFigure[] {
  return tasks.flatMap((task) =>
    figuresOf(task).flatMap((figure) =>
      (['cold', 'warm'] as const).map((database) => {
        const values = (tree: string) =>
          measurements.filter((m) => m.workload === task.workload && m.tree === tree && m.database === database).map((m) => Number(m[figure.field]));
        const [thisTree, other] = [values(thisLabel), values(otherLabel)];
        return { figure: figure.label, database, thisTree, other, ratio: median(thisTree) / median(other) };
      }),
    ),
  );
}

const number = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 1 });
const cell = (values: number[]) => `${number(median(values))} (${values.map(number).join(', ')})`;

/** A table of each figure, cold and warm: the median of both trees (each round's value in brackets) and their ratio. */
export function printComparison(figures: ComparedFigure[], thisLabel: string, otherLabel: string, heading: string): void {
  process.stdout.write(`\n${heading}\n\n`);
  process.stdout.write(`| figure | database | ${thisLabel} | ${otherLabel} | ${thisLabel} ÷ ${otherLabel} |\n| --- | --- | --- | --- | --- |\n`);
  for (const f of figures) {
    const ratio = Number.isFinite(f.ratio) ? `${f.ratio.toFixed(2)} ×` : 'n/a';
    process.stdout.write(`| ${f.figure} | ${f.database} | ${cell(f.thisTree)} | ${cell(f.other)} | ${ratio} |\n`);
  }
}
