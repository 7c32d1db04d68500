// `npm run build:demo-template [file] [customers,devices,contracts]`: builds the demo book into a PGlite
// template (decision 025). A fresh start with DEMO_DATA runs this itself when the template is absent.
import { buildDemoTemplate } from '../src/server/demo/build-template';
import { demoTemplateFiles } from '../src/server/demo/template';

const [dump, sizeArgument] = process.argv.slice(2);
const [customers, devices, contracts] = (sizeArgument ?? '').split(',').map(Number);
const size = customers && devices && contracts ? { customers, devices, contracts } : undefined;
const started = Date.now();
const files = dump ? { dump, rows: dump.replace(/\.tar\.gz$/, '.rows.gz') } : demoTemplateFiles(size);
await buildDemoTemplate(files, size, (message) => console.log(message));
console.log(`built ${files.dump} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
