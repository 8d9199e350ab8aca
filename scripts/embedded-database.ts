import { loadConfig } from '#platform/config/app-config';
import { startEmbeddedPostgres } from '#platform/persistence/database';

/**
 * The embedded PostgreSQL of `npm start`, in a process of its own. `start-local` starts it in a
 * new process group, so the terminal's Ctrl-C reaches the API and the dispatcher but not the
 * database: they drain their queues and close their connections first, and only then does
 * `start-local` ask this process (message `stop`) to shut the server down. When `start-local`
 * disappears without asking (killed), the closed IPC channel stops the server the same way.
 *
 * Messages to the parent: `{ url }` once the server answers, `{ error }` when it cannot start.
 */
async function main() {
  const config = loadConfig();
  const server = await startEmbeddedPostgres(config.EMBEDDED_PG_DIR, config.EMBEDDED_PG_PORT);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
    return stopping;
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop();
  });
  process.once('disconnect', () => void stop());
  process.send?.({ url: server.url });
}

main().catch((error: unknown) => {
  process.send?.({ error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
