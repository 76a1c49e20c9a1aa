/* Stand-in for NCCL's communicator header: the socket transport needs only what core.h gives. */
#pragma once
#include "core.h"
