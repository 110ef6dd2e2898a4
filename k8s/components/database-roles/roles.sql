-- One app's database and its two roles, least privilege. Run once per app, as a superuser (or
-- the platform's admin role), with psql:
--
--   psql "$ADMIN_URL" -v ON_ERROR_STOP=1 -f roles.sql \
--     -v db=payments_gateway \
--     -v migrator=gateway_migrator -v migrator_password="$GATEWAY_MIGRATOR_PASSWORD" \
--     -v app=gateway_app           -v app_password="$GATEWAY_APP_PASSWORD"
--
-- migrator  owns the database and the `public` schema: runs the migration Job (DDL).
-- app       the serving pods' role: CONNECT to this database only, USAGE on the schema and DML
--           (SELECT, INSERT, UPDATE, DELETE) on the tables and sequences the migrator creates.
-- Neither role can create databases or roles, nor log in anywhere else. Re-running is safe:
-- existing roles get the given password, existing grants are kept.
\set ON_ERROR_STOP on

SELECT format('CREATE ROLE %I LOGIN', :'migrator') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'migrator') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec
ALTER ROLE :"migrator" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'migrator_password';
ALTER ROLE :"app" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'app_password';

SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'migrator') WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
ALTER DATABASE :"db" OWNER TO :"migrator";
-- Only these two roles may connect (PUBLIC may by default).
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO :"app";

\connect :"db"
ALTER SCHEMA public OWNER TO :"migrator";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app";
-- Tables and sequences the migrator creates from now on...
ALTER DEFAULT PRIVILEGES FOR ROLE :"migrator" IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"migrator" IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO :"app";
-- ...and those that already exist (a database that predates these roles).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app";
