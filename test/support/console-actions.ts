import { TestHttp } from '@app/testing';

/** Creating and reading actions over the REST API, for the console specs to set up and check what the pages did. */
export function restActions(client: TestHttp) {
  return {
    /** Creates an action and answers its id; anything but 201 fails the test. */
    async create(body: object): Promise<string> {
      const created = await client.post('/actions', body);
      expect(created.status).toBe(201);
      return created.body.id as string;
    },
    async read(id: string) {
      return (await client.get(`/actions/${id}`)).body;
    },
  };
}
