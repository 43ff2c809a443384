/** JSON for embedding inside a <script> element: '<' is escaped so no '</script>' or '<!--' can end it. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
