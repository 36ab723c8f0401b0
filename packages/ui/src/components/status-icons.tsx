import type { ComponentProps } from 'react';
import { Icon } from './icons';

/**
 * More stroke icons in Lucide's shapes (see icons.tsx), each built from its path data: a warning,
 * a missing image, a bin, a calendar, a bar chart, a list, a lock, a flag and a crossed-out eye.
 */
function strokeIcon(name: string, paths: readonly string[]) {
  const StrokeIcon = (props: ComponentProps<'svg'>) => (
    <Icon {...props}>
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </Icon>
  );
  StrokeIcon.displayName = name;
  return StrokeIcon;
}

export const AlertTriangleIcon = strokeIcon('AlertTriangleIcon', [
  'm21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3',
  'M12 9v4',
  'M12 17h.01',
]);

export const ImageOffIcon = strokeIcon('ImageOffIcon', [
  'M2 2l20 20',
  'M10.41 10.41a2 2 0 1 1-2.83-2.83',
  'M13.5 13.5 6 21',
  'M18 12l3 3',
  'M3.59 3.59A1.99 1.99 0 0 0 3 5v14a2 2 0 0 0 2 2h14c.55 0 1.052-.22 1.41-.59',
  'M21 15V5a2 2 0 0 0-2-2H9',
]);

export const TrashIcon = strokeIcon('TrashIcon', [
  'M3 6h18',
  'M19 6v14c0 1-1 2-2 2H7c-1 0-2-1-2-2V6',
  'M8 6V4c0-1 1-2 2-2h4c1 0 2 1 2 2v2',
  'M10 11v6',
  'M14 11v6',
]);

export const CalendarIcon = strokeIcon('CalendarIcon', [
  'M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
  'M16 2v4',
  'M8 2v4',
  'M3 10h18',
]);

export const BarChartIcon = strokeIcon('BarChartIcon', ['M3 3v18h18', 'M18 17V9', 'M13 17V5', 'M8 17v-3']);

export const ListIcon = strokeIcon('ListIcon', ['M8 6h13', 'M8 12h13', 'M8 18h13', 'M3 6h.01', 'M3 12h.01', 'M3 18h.01']);

/** A closed padlock (a poll whose voting has closed, docs/closing.md). */
export const LockIcon = strokeIcon('LockIcon', [
  'M6 11h12a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-6a2 2 0 0 1 2-2Z',
  'M8 11V7a4 4 0 0 1 8 0v4',
]);

export const FlagIcon = strokeIcon('FlagIcon', ['M4 15s1-1 4-1 5 2 8 2 4-1 4-1V3s-1 1-4 1-5-2-8-2-4 1-4 1z', 'M4 22v-7']);

export const EyeOffIcon = strokeIcon('EyeOffIcon', [
  'M9.88 9.88a3 3 0 1 0 4.24 4.24',
  'M10.73 5.08A10.43 10.43 0 0 1 12 5c7 0 10 7 10 7a13.16 13.16 0 0 1-1.67 2.68',
  'M6.61 6.61A13.526 13.526 0 0 0 2 12s3 7 10 7a9.74 9.74 0 0 0 5.39-1.61',
  'M2 2l20 20',
]);
