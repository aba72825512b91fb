/** `node dist/test/cluster/harness/cleanup.js`: removes what a killed cluster run left (run.sh calls it before and after). */
import { removeNetwork } from './network.js';

removeNetwork();
