/* Stand-in: nothing of it is used by NCCL's socket transport. */
#pragma once
