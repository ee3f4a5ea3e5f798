/** Re-exported for the subject tests; see `subjects/subject-overlap.ts`. */
export { subjectsCollide } from "../subjects/subject-overlap.js";
