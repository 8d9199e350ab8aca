/** A postal address as stored (a location's `address` column) and presented. */
export interface PostalAddress {
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postal_code: string | null;
  country: string;
}

/** ISO 3166-1 alpha-2, in either case on input. */
export const COUNTRY_PATTERN = /^[A-Za-z]{2}$/;
export const normalizeCountry = (country: string) => country.toUpperCase();

/** The stored form of a validated address body (absent optional parts become null), or null. */
export const postalAddress = (value: unknown): PostalAddress | null => {
  if (value === null) return null;
  const a = value as Partial<PostalAddress>;
  return {
    line1: a.line1!,
    line2: a.line2 ?? null,
    city: a.city!,
    region: a.region ?? null,
    postal_code: a.postal_code ?? null,
    country: normalizeCountry(a.country!),
  };
};
