/** Tag rules: a trimmed, non-empty name and an optional #RRGGBB colour. */
export const TAG_NAME_MAX = 100;
export const TAG_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

export function normalizeTagName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

export function normalizeTagColor(color: string | null | undefined): string | null | undefined {
  return typeof color === 'string' ? color.toLowerCase() : color;
}
