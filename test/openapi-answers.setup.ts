import { recordedProblems } from './support/openapi-answers';

// Every answer an in-process API gave during the spec file must be one its OpenAPI document
// describes: a status it lists and a body its schema accepts. The document can then never drift.
afterAll(() => {
  const problems = recordedProblems();
  if (problems.length) throw new Error(`Answers the OpenAPI document does not describe:\n${problems.join('\n')}`);
});
