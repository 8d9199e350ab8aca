/** What the contexts need to know about an entity: its code, base currency and time zone. */
export interface EntityProfile {
  id: string;
  code: string;
  baseCurrency: string;
  timezone: string;
}
