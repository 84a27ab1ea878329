export * from "./clock";
export * from "./users";
export * from "./listings";
export * from "./analytics";
export * from "./images";
export * from "./saved-searches";
