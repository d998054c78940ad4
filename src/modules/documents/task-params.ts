// What a document's tasks are queued with (the tasks table's params column, as JSON).

/** The options of a pre-translation task. */
export interface PretranslateOptions {
  auto_accept: boolean;
  case_sensitive: boolean;
  attribute_to_creator: boolean;
  /** Who asked, recorded on memory entries written by confirmation. */
  username: string;
}

/** The options of an import task: a pre-translation right after it, when the upload asked for one. */
export interface DocumentImportParams extends PretranslateOptions {
  pretranslate: boolean;
}
