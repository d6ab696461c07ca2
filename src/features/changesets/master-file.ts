/**
 * RFC 1035 master files for `/dns zone export` and `/dns zone import` (change sets):
 * `serializeZone` writes a whole zone, `parseMasterFile` reads a zone or a fragment back into
 * Regdesk's records, with coded, line-numbered errors for the text catalog to word.
 */
export {
  MASTER_FILE_ERROR_CODES,
  type MasterFileError,
  type MasterFileErrorCode,
  type MasterFileNote,
} from './master-file-errors.js';
export {
  MAX_ERRORS,
  MAX_QUOTED,
  type MasterFileResult,
  type ParsedRecord,
  parseMasterFile,
} from './master-file-parse.js';
export { serializeZone, type ZoneFileComments, type ZoneToExport } from './master-file-serialize.js';
