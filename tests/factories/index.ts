export * from "./clock";
export * from "./users";
export * from "./listings";
export * from "./conversations";
export * from "./signed-in";
export * from "./analytics";
export * from "./images";
export * from "./trades";
