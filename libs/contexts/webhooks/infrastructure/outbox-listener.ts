import { Client } from 'pg';

/**
 * A connection of its own LISTENing to the outbox trigger's NOTIFY: `onNotify` runs for each
 * notification, `onError` for a connection error once connected. Rejects when it cannot connect.
 */
export async function listenToOutbox(
  connectionString: string | undefined,
  onNotify: () => void,
  onError: (error: Error) => void,
): Promise<Client> {
  const client = new Client({ connectionString });
  client.on('error', onError);
  client.on('notification', onNotify);
  await client.connect();
  await client.query('LISTEN outbox_events');
  return client;
}
