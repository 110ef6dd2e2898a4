// Preloaded into each service by `BENCH_KAFKA_DIR=… npm run bench` (NODE_OPTIONS=--require …): counts the Kafka
// requests the process sends, by API and by second (kafkajs's Connection.send), and writes them as
// <dir>/<service>-<pid>.kafka.json when the process exits. The broker's CPU is mostly per request, so this says
// which client sends the requests a payment costs the broker.
const { writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const dir = process.env.BENCH_KAFKA_DIR;
if (dir) {
  const seconds = {};
  try {
    const Connection = require(require.resolve('kafkajs/src/network/connection', { paths: [process.cwd()] }));
    const send = Connection.prototype.send;
    Connection.prototype.send = function (args) {
      const s = Math.floor(Date.now() / 1000);
      const name = args.request.apiName;
      const bucket = (seconds[s] ??= {});
      bucket[name] = (bucket[name] ?? 0) + 1;
      return send.call(this, args);
    };
  } catch (err) {
    process.stderr.write(`kafka-requests: ${err.message}\n`);
  }
  process.on('exit', () => {
    const name = basename(dirname(dirname(process.argv[1] ?? 'node')));
    writeFileSync(join(dir, `${name}-${process.pid}.kafka.json`), JSON.stringify(seconds));
  });
}
