#!/usr/bin/env node
// Demo pane: a long job that prints nothing for a long time and waits for no one.

process.stdout.write('\u001b[2J\u001b[H$ ./nightly-backup.sh\n');
process.stdout.write('Backing up /var/lib/postgres to s3://backups/nightly (about 40 minutes, no output until done)\n');
setInterval(() => {}, 60_000);
