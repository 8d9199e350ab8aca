import { Logger } from '@nestjs/common';
import { ShipmentMessage, ShipmentNotifier } from '../application/shipment-notifier.port';

/**
 * The sandbox notifier: sends nothing; the message is kept as the notification row itself
 * (marked `sent` with the channel `sandbox`), readable through
 * GET /v1/packages/{id}/notifications, and logged.
 */
export class SandboxNotifier implements ShipmentNotifier {
  readonly channel = 'sandbox';
  private readonly logger = new Logger('SandboxNotifier');

  send(message: ShipmentMessage): Promise<void> {
    this.logger.log(
      { notification_id: message.notificationId, package_id: message.packageId },
      message.subject,
    );
    return Promise.resolve();
  }
}
