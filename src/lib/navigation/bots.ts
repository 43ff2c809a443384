/**
 * Crawlers recognised by their User-Agent (SPEC §8: bots get no error page; the error is only
 * logged). Named crawlers first, then the words crawlers put in their names. Browsers, headless
 * ones included, are people (or tests) and see the page.
 */
const NAMED =
  /googlebot|google-inspectiontool|bingbot|bingpreview|baiduspider|yandex(bot|images)|duckduckbot|slurp|sogou|360spider|bytespider|petalbot|applebot|facebookexternalhit|twitterbot|linkedinbot|discordbot|telegrambot|slackbot|whatsapp|ahrefsbot|semrushbot|mj12bot|dotbot|gptbot|claudebot|ccbot|amazonbot|naver|yeti|seznambot|qwantify|ia_archiver/i;
const GENERIC = /\b(bot|crawler|spider|scraper)\b|[a-z](bot|crawler|spider)\/\d/i;

export function isBot(userAgent: string | null | undefined): boolean {
  if (!userAgent) return false;
  return NAMED.test(userAgent) || GENERIC.test(userAgent);
}
