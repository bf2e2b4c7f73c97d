/**
 * The ceiling of the HTTP benchmark: bare node:http answering a constant JSON body, with no
 * framework, routing, auth or storage. Nothing served through Node's HTTP stack on the same core
 * can be faster, so the leaderboard's figures are also shown as a share of this one.
 */
import { createServer } from 'node:http';

const body = '{"user_info":{"user_id":"p0000000000000000000000","score":1,"rank":1}}';
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') {
    console.log(JSON.stringify({ msg: 'baseline listening', url: `http://127.0.0.1:${address.port}` }));
  }
});
