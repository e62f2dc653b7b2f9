import { benchConcurrentUsers, benchSearchSizes } from './search.bench';
if (process.env.SIZES) await benchSearchSizes(process.env.SIZES.split(',').map(Number));
if (process.env.USERS) await benchConcurrentUsers(Number(process.env.USERS), Number(process.env.EACH ?? 5000));
process.exit(0);
