import { CronExpression, InvalidCronError } from './cron-expression';
import { cronSyntaxProblem } from './cron-syntax';

const refusal = (expression: string) => {
  try {
    new CronExpression(expression);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidCronError);
    return (error as Error).message;
  }
  throw new Error(`${expression} was accepted`);
};

const READS =
  '5 fields (minute hour day-of-month month day-of-week), 6 (second first) or one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly';

describe('cron expressions Punctual refuses, in its words', () => {
  it.each([
    ['0 0 9 * * * *', `cron "0 0 9 * * * *" is not valid: it has 7 fields; Punctual reads ${READS}`],
    ['every day', `cron "every day" is not valid: it has 2 fields; Punctual reads ${READS}`],
    ['', `cron "" is not valid: it has 0 fields; Punctual reads ${READS}`],
    ['@every', `cron "@every" is not valid: "@every" is not a shorthand Punctual reads; it reads ${READS}`],
    [
      '0 0 32 * *',
      'cron "0 0 32 * *" is not valid: day-of-month "32" names 32, outside 1–31; day-of-month takes 1–31, ? (any), L (last day), nW (weekday nearest the nth), LW (last weekday), *, lists a,b, ranges a-b and steps */n',
    ],
    ['0 25 * * *', 'cron "0 25 * * *" is not valid: hour "25" names 25, outside 0–23; hour takes 0–23, *, lists a,b, ranges a-b and steps */n'],
    ['61 * * * * *', 'cron "61 * * * * *" is not valid: second "61" names 61, outside 0–59; second takes 0–59, *, lists a,b, ranges a-b and steps */n'],
    ['* * * 0 *', 'cron "* * * 0 *" is not valid: month "0" names 0, outside 1–12; month takes 1–12 or JAN–DEC, *, lists a,b, ranges a-b and steps */n'],
    [
      '*/0 * * * *',
      'cron "*/0 * * * *" is not valid: minute "*/0" has a step that is not a whole number of at least 1 ("*/0"); minute takes 0–59, *, lists a,b, ranges a-b and steps */n',
    ],
    [
      '5-2 * * * *',
      'cron "5-2 * * * *" is not valid: minute "5-2" has a range that runs backwards ("5-2"); minute takes 0–59, *, lists a,b, ranges a-b and steps */n',
    ],
    [
      '1,2,x * * * *',
      'cron "1,2,x * * * *" is not valid: minute "1,2,x" holds characters Punctual does not read there; minute takes 0–59, *, lists a,b, ranges a-b and steps */n',
    ],
  ])('%s', (expression, message) => {
    expect(refusal(expression)).toBe(message);
  });

  it('names a word that is no month or weekday, as given', () => {
    expect(refusal('0 0 1 JAN-FOO *')).toMatch(
      /^cron "0 0 1 JAN-FOO \*" is not valid: month "JAN-FOO" holds "FOO", which is not a word Punctual reads there; month takes 1–12 or JAN–DEC/,
    );
    expect(refusal('0 9 * * FUN')).toMatch(/day-of-week "FUN" holds "FUN"/);
    expect(refusal('0 9 * * 5#6')).toMatch(/day-of-week "5#6" asks for the 6th weekday of a month \("5#6"\); # takes 1–5/);
    expect(refusal('0 9 32W * *')).toMatch(/day-of-month "32W" names 32, outside 1–31/);
  });

  it.each([
    '@daily',
    '@HOURLY',
    '0 0 L * *',
    '0 0 15W * *',
    '0 0 LW * *',
    '0 9 * * 5#2',
    '0 9 * * FRIL',
    '0 9 * * 5L',
    '0 9 1 * +MON',
    '0 0 ? * MON-FRI',
    '0 9 * JAN-MAR,DEC SUN',
    '*/15 0-30/5 * * * 7',
  ])('reads %s', (expression) => {
    expect(cronSyntaxProblem(expression)).toBeNull();
    expect(() => new CronExpression(expression)).not.toThrow();
  });
});
