import type { PayDevice } from '@huafang/contracts';
import { useIsPhone } from '../../common/use-screen';
import { payDeviceOf } from './pay-state';

/** The device the channels are asked to pay on: the phone page on phones, the desktop page or QR code elsewhere. */
export function usePayDevice(): PayDevice {
  return payDeviceOf(navigator.userAgent, useIsPhone());
}
