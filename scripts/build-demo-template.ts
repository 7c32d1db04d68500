// `npm run build:demo-template [file] [customers,devices,contracts]`: builds the demo book into a PGlite
// template (decision 025). A fresh start with DEMO_DATA runs this itself when the template is absent.
import { buildDemoTemplate } from '../src/server/demo/build-template';
import { demoTemplatePath } from '../src/server/demo/template';

const [file = demoTemplatePath(), sizeArgument] = process.argv.slice(2);
const [customers, devices, contracts] = (sizeArgument ?? '').split(',').map(Number);
const size = customers && devices && contracts ? { customers, devices, contracts } : undefined;
const started = Date.now();
await buildDemoTemplate(file, size, (message) => console.log(message));
console.log(`built ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
