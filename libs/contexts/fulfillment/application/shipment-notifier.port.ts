/** One message telling the customer a package left. */
export interface ShipmentMessage {
  notificationId: string;
  packageId: string;
  recipient: string | null;
  subject: string;
  body: string;
}

/**
 * Where shipment notifications go (email, SMS, a storefront). The worker calls it once per
 * queued notification; throwing makes BullMQ retry. The sandbox adapter records the message.
 */
export interface ShipmentNotifier {
  readonly channel: string;
  send(message: ShipmentMessage): Promise<void>;
}

export const SHIPMENT_NOTIFIER = Symbol('SHIPMENT_NOTIFIER');

/** The job that delivers one queued notification (ids only). */
export const NOTIFY_JOB = 'send-shipment-notification' as const;
