/** A /dev page's text from its data attribute with `{{name}}` placeholders filled (the catalogs' own syntax). */
export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));
