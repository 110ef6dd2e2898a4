/** Nest injection token of the process's root pino logger (see createRootLogger). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
