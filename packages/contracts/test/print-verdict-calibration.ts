/** Prints the calibration report for docs/confidence.md (`npm run verdict:calibration`). */
import { calibrate, calibrationReport } from './verdict-calibration';

process.stdout.write(`${calibrationReport(calibrate())}\n`);
