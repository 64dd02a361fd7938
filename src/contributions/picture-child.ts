// The picture process's entry (picture-process.ts): prepares each picture it is sent, one
// message each way, and ends with its parent (the IPC channel closes).
import { preparePicture } from './pictures.js';
import type { PictureJob, PictureReply } from './picture-process.js';

process.on('message', (job: PictureJob) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  void preparePicture(bytes).then((outcome) => {
    const reply: PictureReply = { id: job.id, outcome };
    process.send?.(reply);
  });
});
process.on('disconnect', () => process.exit(0));
