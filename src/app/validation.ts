// Field rules of spec §5, shared by forms (the server checks again).

export const USERNAME_MIN = 5;

/** 5 to 100 of letters, digits and . _ ~ - (what the panel accepts in a URL path unescaped). */
export const USERNAME_PATTERN = "[A-Za-z0-9._~\\-]{5,100}";
export const validUsername = (v: string) => new RegExp(`^${USERNAME_PATTERN}$`).test(v.trim());
/** Something before and after an @, and a dot followed by at least 2 characters. */
export const validEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/.test(v.trim());
export const validPassword = (v: string) => v.length >= 1;
