/**
 * The names TypeORM records in the migrations table for these classes: an instance's `name`, else
 * its class name. Migration constructors take no arguments and do nothing, so this is cheap.
 */
export function migrationNames(migrations: Function[]): string[] {
  return migrations.map((M) => {
    const instance = new (M as new () => { name?: string })();
    return instance.name || M.name;
  });
}
