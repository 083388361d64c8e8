// A real, throwaway OpenSSH server on 127.0.0.1 for tests of tmux over ssh. It lives beside the
// benchmarks (bench/lib/sshd.mjs), which start the same server for `npm run bench hosts`.

export { requireSshd, sshWrapper, startTestSshd, type TestSshd } from '../../bench/lib/sshd.mjs';
