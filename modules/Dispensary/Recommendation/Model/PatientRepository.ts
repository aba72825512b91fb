import {
  ConnectionProvider,
  EventManagerInterface,
  FrameworkServices,
  inject,
  injectable,
  InputException,
  isUniqueViolation,
  LocalizedException,
  NoSuchEntityException,
  nowTimestamp,
  requestContext,
  runSearch,
  searchCriteriaOutput,
  type SearchColumn,
  type SearchCriteria,
  type SearchResults,
} from '#framework';
import type { PatientInput, PatientInterface } from '../Api/Data/PatientInterface.js';
import { PATIENT_SEARCH_FIELDS, type PatientRepositoryInterface } from '../Api/PatientRepositoryInterface.js';
import { PATIENT_SAVE_AFTER, type Events } from '../Api/events.js';
import { MAX_ID } from '../Api/schemas.js';

export const PATIENT_TABLE = 'dispensary_patient';
export const PATIENT_IN_ALL_SCOPE =
  'A patient belongs to one store and cannot be created under the "all" scope. Use the scope of the patient\'s store.';
export const DUPLICATE_EMAIL = 'A patient with the email "%email" already exists in this store.';

interface PatientRow {
  patient_id: number;
  store_id: number;
  firstname: string;
  lastname: string;
  email: string;
}

const COLUMNS = ['patient_id', 'store_id', 'firstname', 'lastname', 'email'];

function toPatient(row: PatientRow): PatientInterface {
  return {
    patient_id: Number(row.patient_id),
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    store_id: Number(row.store_id),
  };
}

/** Search fields to columns (the whitelist: nothing else reaches SQL). */
const SEARCH_COLUMNS: Record<string, SearchColumn> = Object.fromEntries(
  Object.keys(PATIENT_SEARCH_FIELDS).map((field) => [field, { column: `${PATIENT_TABLE}.${field}` }]),
);

/** Emails compare case-insensitively, as on Magento's MySQL collation. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

@injectable()
export class PatientRepository implements PatientRepositoryInterface {
  constructor(
    @inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider,
    @inject(EventManagerInterface) private readonly events: EventManagerInterface,
  ) {}

  async save(patient: PatientInput): Promise<PatientInterface> {
    if (requestContext.isAllStores()) throw new LocalizedException(PATIENT_IN_ALL_SCOPE);
    const storeId = requestContext.store().id;
    const key = emailKey(patient.email);
    const now = nowTimestamp();
    const db = this.connection.get();
    try {
      await db(PATIENT_TABLE).insert({
        store_id: storeId,
        firstname: patient.firstname,
        lastname: patient.lastname,
        email: patient.email,
        email_key: key,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new InputException([{ phrase: DUPLICATE_EMAIL, parameters: { email: patient.email } }]);
      throw error;
    }
    const row = (await db(PATIENT_TABLE)
      .select(COLUMNS)
      .where({ store_id: storeId, email_key: key })
      .first()) as PatientRow;
    const saved = toPatient(row);
    await this.events.dispatch(PATIENT_SAVE_AFTER, { patient: saved } satisfies Events[typeof PATIENT_SAVE_AFTER]);
    return saved;
  }

  async get(patientId: number): Promise<PatientInterface> {
    if (patientId > MAX_ID) throw NoSuchEntityException.singleField('patient_id', patientId);
    const query = this.connection.get()(PATIENT_TABLE).select(COLUMNS).where('patient_id', patientId);
    if (!requestContext.isAllStores()) query.andWhere('store_id', requestContext.store().id);
    const row = (await query.first()) as PatientRow | undefined;
    if (!row) throw NoSuchEntityException.singleField('patient_id', patientId);
    return toPatient(row);
  }

  async getList(searchCriteria: SearchCriteria): Promise<SearchResults<PatientInterface>> {
    const query = this.connection
      .get()(PATIENT_TABLE)
      .select(COLUMNS.map((c) => `${PATIENT_TABLE}.${c}`));
    // Never across stores: a store's scope sees its own patients only.
    if (!requestContext.isAllStores()) query.where(`${PATIENT_TABLE}.store_id`, requestContext.store().id);
    const { rows, total } = await runSearch<PatientRow>(query, searchCriteria, {
      fields: PATIENT_SEARCH_FIELDS,
      columns: SEARCH_COLUMNS,
      dialect: this.connection.dialect,
      tieBreaker: `${PATIENT_TABLE}.patient_id`,
    });
    return { items: rows.map(toPatient), search_criteria: searchCriteriaOutput(searchCriteria), total_count: total };
  }
}
