import { api } from '../../support/http';

type Api = ReturnType<typeof api>;

/** A new customer account of the client's entity and mode. */
export async function newCustomer(client: Api): Promise<string> {
  return (
    await client
      .post('/v1/accounts')
      .send({ name: `Customer ${Date.now()}` })
      .expect(201)
  ).body.id;
}

/**
 * An invoice issued through the order routes (created, then confirmed): one untaxed service line
 * of `amount`, so its amount due is `amount`. Confirming posts it to receivables, as any invoice.
 */
export async function issuedInvoice(
  client: Api,
  accountId: string,
  amount: number,
  options: { currency?: string } = {},
): Promise<string> {
  const draft = await client
    .post('/v1/orders')
    .send({
      document_type: 'invoice',
      account_id: accountId,
      ...(options.currency ? { currency: options.currency } : {}),
      lines: [{ description: 'Services', quantity: 1, unit_price: amount }],
    })
    .expect(201);
  const issued = await client.post(`/v1/orders/${draft.body.id}/confirm`).expect(200);
  expect(issued.body).toMatchObject({
    order_status: 'confirmed',
    payment_status: 'unpaid',
    amount_due: amount,
  });
  return issued.body.id;
}
