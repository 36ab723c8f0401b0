/** Prints the calibration reports for docs/confidence.md (`npm run verdict:calibration`): the plain verdict's, then the head-to-head's. */
import { calibratePairs, pairCalibrationReport } from './pairwise-calibration';
import { calibrate, calibrationReport } from './verdict-calibration';

process.stdout.write(`${calibrationReport(calibrate())}\n\n${pairCalibrationReport(calibratePairs())}\n`);
