export * from "./detect.ts";
export * from "./driver.ts";
export * from "./swap.ts";
export * from "./v1.ts";
export * from "./v2.ts";
