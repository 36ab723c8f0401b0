// The process SvgRenderer draws SVGs in (svg-render.ts): librsvg cannot be interrupted inside one drawing,
// so a drawing that runs out of time is stopped by ending this process.
import sharp from 'sharp';
import { runSvgJob, type SvgJobRequest } from './svg-render-jobs';

sharp.cache(false);

process.on('message', (request: SvgJobRequest) => {
  runSvgJob(request.job).then(
    (result) => process.send?.({ id: request.id, result }),
    (error: unknown) => process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
// The service is gone: nothing more will come.
process.on('disconnect', () => process.exit(0));
// Loaded: the time budget of a drawing counts from here, not from the process's start.
process.send?.({ ready: true });
