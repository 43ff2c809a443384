/** The header the site sends with the page's language, so API messages answer in it. */
export const CLIENT_LANGUAGE_HEADER = 'X-Client-Language';
