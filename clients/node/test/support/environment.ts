// Where the test finds the server and its data: the environment variables
// CMake passes (clients/node/CMakeLists.txt), else the repository layout.

import * as path from "node:path";

// dist/test/support -> clients/node -> the repository root.
const REPOSITORY = path.resolve(__dirname, "..", "..", "..", "..", "..");

export const MOTIOND_BIN = process.env["MOTIOND_BIN"] ?? path.join(REPOSITORY, "build", "server", "motiond");
export const ROBOTS_DIR = process.env["MOTIOND_ROBOTS_DIR"] ?? path.join(REPOSITORY, "robots");
export const EXAMPLES_DIR = process.env["MOTIOND_EXAMPLES_DIR"] ?? path.join(REPOSITORY, "clients", "examples");
