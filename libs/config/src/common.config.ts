import { IsIn, IsInt, Max, Min } from 'class-validator';

const PORT_RULE = { message: '$property must be an integer between 1 and 65535' };
const HOST_PORT_LIST = /^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/;

/** Settings every process shares. Property name = environment variable name. */
export class CommonConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsInt()
  @Min(100)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;
}

export { HOST_PORT_LIST, PORT_RULE };
