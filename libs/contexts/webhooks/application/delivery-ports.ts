export interface DueDelivery {
  id: string;
  /** The attempt number the job will make (attempt_count + 1), part of the job id. */
  attempt: number;
  delayMs?: number;
}

/** Schedules delivery attempts (the delivery queue); a failure to schedule is not fatal. */
export abstract class DeliveryScheduler {
  abstract enqueue(deliveries: readonly DueDelivery[]): Promise<void>;
}

/** The address an attempt connects to: the one that was checked. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export type TargetDecision = { pinned: PinnedAddress } | { refusal: string };

/** The receiver-URL rule applied to the addresses a webhook URL's host resolves to. */
export abstract class WebhookTargets {
  /** undefined when the URL may receive webhooks, else a hint saying why not. */
  abstract refusal(raw: string): Promise<string | undefined>;
  /** Resolves the URL's host once and checks every address; the pinned address or why not. */
  abstract resolve(raw: string): Promise<TargetDecision>;
}
