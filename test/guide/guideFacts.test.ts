/**
 * What the module guide says in prose rather than in a tested file (docs/writing-a-module.md and
 * docs/reference/module-files.md): the exceptions a module throws and the status each answers (the
 * reference's table), the caller outside a request, the timestamp form, and
 * (docs/reference/di-xml.md) every contract a module may replace by preference. Each row of the
 * exception table is built here as the page writes it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import {
  AuthorizationException,
  InputException,
  LocalizedException,
  NoSuchEntityException,
  nowTimestamp,
  requestContext,
  ServiceUnavailableException,
  TooManyRequestsException,
} from '../../app/framework/index.js';
import { httpHeadersOf, httpStatusOf } from '../../app/framework/webapi/ErrorProcessor.js';

/** The exception table: the first code span of a row, as written, and the status it states. */
function exceptionRows(): { example: string; status: number }[] {
  const page = readFileSync(path.join(PROJECT_ROOT, 'docs', 'reference', 'module-files.md'), 'utf8');
  const start = page.indexOf('## Errors, the caller and timestamps');
  expect(start).to.be.greaterThan(-1);
  const table = page.slice(start).split('\n\n')[2]!;
  return table
    .split('\n')
    .filter((row) => row.startsWith('| `'))
    .map((row) => {
      const cells = row.split(' | ');
      return { example: /`([^`]+)`/.exec(cells[0]!)![1]!, status: Number(/\d{3}/.exec(cells[cells.length - 1]!)![0]) };
    });
}

/** Each example of the table, built as the guide writes it. */
const EXAMPLES: Record<string, () => LocalizedException> = {
  "NoSuchEntityException.singleField('reminder_id', 7)": () => NoSuchEntityException.singleField('reminder_id', 7),
  "InputException.requiredField('message')": () => InputException.requiredField('message'),
  "new LocalizedException('Reminder %1 is closed.', [7])": () => new LocalizedException('Reminder %1 is closed.', [7]),
  "AuthorizationException.forResources(['Acme_Reminders::reminders'])": () =>
    AuthorizationException.forResources(['Acme_Reminders::reminders']),
  'new TooManyRequestsException(retryAfterSeconds)': () => new TooManyRequestsException(30),
  'new ServiceUnavailableException()': () => new ServiceUnavailableException(),
};

describe('docs/writing-a-module.md and its reference: what the guide says in prose', () => {
  it('should answer each exception of the table with the status the table gives', () => {
    const rows = exceptionRows();
    expect(rows.map((r) => r.example)).to.deep.equal(Object.keys(EXAMPLES));
    for (const { example, status } of rows) expect(httpStatusOf(EXAMPLES[example]!()), example).to.equal(status);
    expect(httpHeadersOf(new TooManyRequestsException(30))).to.deep.equal({ 'Retry-After': '30' });
  });

  it('should render phrases as the guide says: named, positional, and several input errors at once', () => {
    expect(NoSuchEntityException.singleField('reminder_id', 7).message).to.equal('No such entity with reminder_id = 7');
    expect(new LocalizedException('Reminder %1 is closed.', [7]).message).to.equal('Reminder 7 is closed.');
    const several = new InputException([
      { phrase: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: 'message' } },
      {
        phrase: 'Invalid value of "%value" provided for the %fieldName field.',
        parameters: { fieldName: 'qty', value: -1 },
      },
    ]);
    expect(several.phrase).to.equal('One or more input exceptions have occurred.');
    expect(several.errors).to.have.length(2);
    expect(InputException.invalidFieldValue('qty', -1).parameters).to.deep.equal({ fieldName: 'qty', value: '-1' });
  });

  it('should give the admin scope and a guest outside a request', () => {
    expect(requestContext.current()).to.equal(undefined);
    expect([requestContext.store().code, requestContext.isAllStores(), requestContext.caller().type]).to.deep.equal([
      'admin',
      true,
      'guest',
    ]);
  });

  it("should write timestamps in Magento's UTC form", () => {
    expect(nowTimestamp(new Date('2026-11-27T01:02:03.456Z'))).to.equal('2026-11-27 01:02:03');
    expect(nowTimestamp()).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('should list every contract the project serves by preference among the services meant to be replaced', () => {
    const reference = readFileSync(path.join(PROJECT_ROOT, 'docs', 'reference', 'di-xml.md'), 'utf8');
    const start = reference.indexOf('## Services meant to be replaced');
    expect(start).to.be.greaterThan(-1);
    const table = reference.slice(start).split('\n\n')[2]!;
    const preferences = projectDiXmlFiles().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/<preference for="([^"]+)"/g)].map((m) => m[1]!),
    );
    expect(preferences.length).to.be.greaterThan(20);
    const missing = preferences.filter((contract) => {
      const parts = contract.split('\\');
      // A row names a contract in full, or by its short name after another of its module's.
      return !(
        table.includes(contract) ||
        (table.includes(parts.at(-1)!) && table.includes(parts.slice(0, 2).join('\\')))
      );
    });
    expect(missing).to.deep.equal([]);
  });
});

/** etc/di.xml and etc/<area>/di.xml of every module under modules/. */
function projectDiXmlFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === 'di.xml' && full.includes(`${path.sep}etc${path.sep}`)) out.push(full);
    }
  };
  walk(path.join(PROJECT_ROOT, 'modules'));
  return out;
}
