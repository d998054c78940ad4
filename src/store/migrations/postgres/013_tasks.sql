-- Background work is called a task (GET /v2/tasks): "jobs" is Lilt's resource of the same name (/v2/jobs).
ALTER TABLE jobs RENAME TO tasks;
ALTER TABLE job_files RENAME TO task_files;
ALTER TABLE task_files RENAME COLUMN job_id TO task_id;
ALTER TABLE import_staging RENAME COLUMN job_id TO task_id;
ALTER TABLE pretranslate_staging RENAME COLUMN job_id TO task_id;
ALTER INDEX jobs_claim RENAME TO tasks_claim;
ALTER INDEX jobs_memory RENAME TO tasks_memory;
