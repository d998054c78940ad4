-- Imports insert their units as the file is parsed, in their one transaction, instead of staging them
-- first: the staging table is no longer used. An import it held rows for (interrupted by the upgrade)
-- runs again from its stored file.
DROP TABLE import_staging;
