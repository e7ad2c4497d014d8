/**
 * The ceiling: a raw node:http server that reads each request and answers it with one
 * pre-serialized body. Nothing faster can be built on Node's HTTP stack, so a case's ratio to it
 * says how much of the machine the service itself spends. Run as a child process (IPC):
 *   parent → { type: 'answer', status, contentType, body }   sets the answer for the next case
 *   child  → { type: 'listening', port }                       once, at start
 */
import { createServer } from 'node:http';

interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

let answer: Answer = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': 2 },
  body: Buffer.from('{}'),
};

const server = createServer((request, response) => {
  // Drain the request body first, as the service must, then answer from the prepared buffer.
  request.on('data', () => {});
  request.on('end', () => {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
});
server.keepAliveTimeout = 60_000;

process.on('message', (message: { type: string; status: number; contentType: string; body: string }) => {
  if (message.type !== 'answer') return;
  const body = Buffer.from(message.body);
  answer = {
    status: message.status,
    headers: { 'content-type': message.contentType, 'content-length': body.length },
    body,
  };
  process.send?.({ type: 'answer-set' });
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
});
