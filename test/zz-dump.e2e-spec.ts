import { writeFileSync } from 'node:fs';
import { startApiApp } from './support/api-test-app';
it('dumps', async () => {
  const api = await startApiApp();
  const doc = await (await fetch(`${api.client.baseUrl}/docs-json`)).json();
  writeFileSync('/tmp/openapi-doc.json', JSON.stringify(doc, null, 1));
  const router = (api.app.getHttpAdapter().getInstance() as any).router ?? (api.app.getHttpAdapter().getInstance() as any)._router;
  const routes = router.stack.filter((l: any) => l.route).map((l: any) => Object.keys(l.route.methods).join(',') + ' ' + l.route.path);
  writeFileSync('/tmp/openapi-routes.txt', routes.join('\n'));
  await api.close();
});
