import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

// Dates are formatted in Chinese. Set here rather than in main.tsx so dayjs stays out of the first load of pages
// that show no dates: import dayjs from this module, not from 'dayjs'.
dayjs.locale('zh-cn');

export default dayjs;
