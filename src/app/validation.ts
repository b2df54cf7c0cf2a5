// Field rules of spec §5, shared by forms (the server checks again).

export const USERNAME_MIN = 5;

export const validUsername = (v: string) => v.trim().length >= USERNAME_MIN;
/** Something before and after an @, and a dot followed by at least 2 characters. */
export const validEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/.test(v.trim());
export const validPassword = (v: string) => v.length >= 1;
